import { loginSchema, type WrittenUserView } from '@shiftcover/domain';
import { useMutation } from '@tanstack/react-query';
import { CalendarCheck } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { api } from '../../api/client';
import { Button } from '../../components/ui/button';
import { Field, Input } from '../../components/ui/form';
import { MAIN_ID } from '../../lib/focus';
import { fieldErrors } from '../../lib/form-errors';
import { reloadAt } from '../../lib/reload';
import { toast } from '../toast/toast';

export function LoginPage() {
  const [values, setValues] = useState({ username: '', password: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const login = useMutation({
    mutationFn: (body: typeof values) => api.post<WrittenUserView>('/api/auth/login', body),
    onSuccess: (user) => {
      toast({
        title: 'Welcome back!',
        description: `Logged in as ${user.firstName} ${user.lastName}`,
        variant: 'success',
      });
      // docs/product.md §2: after a successful login the page is reloaded at /.
      reloadAt('/');
    },
    onError: (error) =>
      toast({
        title: 'Login Failed',
        description: error instanceof Error && error.message ? error.message : 'Invalid username or password',
        variant: 'destructive',
      }),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = loginSchema.safeParse(values);
    if (!parsed.success) return setErrors(fieldErrors(parsed.error));
    setErrors({});
    login.mutate(values);
  }

  return (
    <main
      id={MAIN_ID}
      tabIndex={-1}
      className="outline-none flex min-h-dvh items-center justify-center bg-gradient-to-b from-teal-50 to-slate-50 px-4"
    >
      <form
        onSubmit={submit}
        noValidate
        className="grid w-full max-w-sm gap-5 rounded-2xl border border-slate-200 bg-white p-8 shadow-sm"
      >
        <div className="flex flex-col items-center gap-2 text-center">
          <span className="grid size-12 place-items-center rounded-xl bg-teal-700 text-white" aria-hidden>
            <CalendarCheck className="size-6" />
          </span>
          <h1 className="text-xl font-bold text-slate-900">Shift Coverage</h1>
          <p className="text-sm text-slate-600">Sign in to your account to manage shifts</p>
        </div>
        <Field label="Username" error={errors.username}>
          {(p) => (
            <Input
              {...p}
              name="username"
              autoComplete="username"
              placeholder="Enter your username"
              value={values.username}
              onChange={(e) => setValues((v) => ({ ...v, username: e.target.value }))}
            />
          )}
        </Field>
        <Field label="Password" error={errors.password}>
          {(p) => (
            <Input
              {...p}
              name="password"
              type="password"
              autoComplete="current-password"
              placeholder="Enter your password"
              value={values.password}
              onChange={(e) => setValues((v) => ({ ...v, password: e.target.value }))}
            />
          )}
        </Field>
        <Button type="submit" size="lg" disabled={login.isPending}>
          {login.isPending ? 'Signing in...' : 'Sign In'}
        </Button>
      </form>
    </main>
  );
}
