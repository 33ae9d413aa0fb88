import { emailDiagnosticSchema, testEmailSchema } from '@shiftcover/domain';
import { BellRing, Send, Stethoscope } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Field, Input, Textarea } from '../../components/ui/form';
import { useSignedInUser } from '../auth/session';
import { useEmailDiagnostic, useSendTestEmail, useTestReminders } from './use-developer-tools';

const presetSubject = 'Test Email from the Shift Scheduler';
const presetMessage =
  'This is a test e-mail from the shift scheduler. If you can read it, e-mail notifications are reaching this address.';

/** docs/product.md §2 "Test Email Notification", with the e-mail diagnostic and the shift reminder test. */
export function TestEmailCard() {
  const me = useSignedInUser();
  const [values, setValues] = useState({
    email: me.notificationEmail ?? me.email ?? '',
    subject: presetSubject,
    message: presetMessage,
  });
  const [problem, setProblem] = useState<{ message: string; fields: string[] } | null>(null);
  const send = useSendTestEmail();
  const diagnostic = useEmailDiagnostic();
  const reminders = useTestReminders();

  function change(field: keyof typeof values, value: string) {
    setValues((v) => ({ ...v, [field]: value }));
    setProblem(null);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = testEmailSchema.safeParse(values);
    if (!parsed.success) {
      return setProblem({
        message: parsed.error.issues[0]?.message ?? 'All fields are required',
        fields: parsed.error.issues.map((issue) => String(issue.path[0])),
      });
    }
    send.mutate(parsed.data);
  }

  function runDiagnostic() {
    const parsed = emailDiagnosticSchema.safeParse({ email: values.email });
    if (!parsed.success) {
      return setProblem({ message: parsed.error.issues[0]?.message ?? '', fields: ['email'] });
    }
    setProblem(null);
    diagnostic.mutate(parsed.data.email);
  }

  const invalid = (field: string) => problem?.fields.includes(field) ?? false;
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Send className="size-4 text-teal-700" aria-hidden />
          Test Email Notification
        </CardTitle>
        <CardDescription>
          Send a test e-mail, check delivery to an address, or send shift reminders now.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form className="grid gap-4" onSubmit={submit} noValidate>
          <Field label="Email">
            {(p) => (
              <Input
                {...p}
                aria-invalid={invalid('email')}
                type="email"
                value={values.email}
                onChange={(e) => change('email', e.target.value)}
              />
            )}
          </Field>
          <Field label="Subject">
            {(p) => (
              <Input
                {...p}
                aria-invalid={invalid('subject')}
                value={values.subject}
                onChange={(e) => change('subject', e.target.value)}
              />
            )}
          </Field>
          <Field label="Message">
            {(p) => (
              <Textarea
                {...p}
                aria-invalid={invalid('message')}
                rows={3}
                value={values.message}
                onChange={(e) => change('message', e.target.value)}
              />
            )}
          </Field>
          {problem && (
            <p role="alert" className="text-sm text-red-700">
              {problem.message}
            </p>
          )}
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={send.isPending}>
              <Send aria-hidden />
              {send.isPending ? 'Sending...' : 'Send Test Email'}
            </Button>
            <Button variant="outline" disabled={diagnostic.isPending} onClick={runDiagnostic}>
              <Stethoscope aria-hidden />
              {diagnostic.isPending ? 'Running...' : 'Run Diagnostic'}
            </Button>
            <Button variant="outline" disabled={reminders.isPending} onClick={() => reminders.mutate()}>
              <BellRing aria-hidden />
              {reminders.isPending ? 'Sending...' : 'Test Shift Reminders'}
            </Button>
          </div>
          {diagnostic.isSuccess && <DiagnosticAnswer answer={diagnostic.data} />}
        </form>
      </CardContent>
    </Card>
  );
}

/** The server's own account of the diagnostic, shown as it came. */
function DiagnosticAnswer({ answer }: { answer: unknown }) {
  const message =
    answer && typeof answer === 'object' && 'message' in answer && typeof answer.message === 'string'
      ? answer.message
      : null;
  return (
    <div role="status" className="grid gap-2 rounded-lg border border-slate-200 bg-slate-50 p-3 text-sm">
      <p className="font-medium text-slate-900">Diagnostic result</p>
      {message && <p className="text-slate-800">{message}</p>}
      <pre className="max-h-60 overflow-auto whitespace-pre-wrap text-xs text-slate-700 [overflow-wrap:anywhere]">
        {typeof answer === 'string' ? answer : JSON.stringify(answer, null, 2)}
      </pre>
    </div>
  );
}
