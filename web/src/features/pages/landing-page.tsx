import { Link } from '@tanstack/react-router';
import { CalendarCheck, CalendarSearch, History, ShieldCheck, Smartphone } from 'lucide-react';
import { buttonVariants } from '../../components/ui/button';
import { MAIN_ID } from '../../lib/focus';

const features = [
  { icon: CalendarSearch, text: 'View and claim available shifts' },
  { icon: History, text: 'Track your shift history and schedule' },
  { icon: ShieldCheck, text: 'Manage shift approvals (Admin)' },
  { icon: Smartphone, text: 'Mobile-friendly interface' },
];

export function LandingPage() {
  return (
    <main
      id={MAIN_ID}
      tabIndex={-1}
      className="outline-none flex min-h-dvh flex-col items-center justify-center bg-gradient-to-b from-teal-50 to-slate-50 px-4 py-12"
    >
      <div className="w-full max-w-md rounded-2xl border border-slate-200 bg-white p-8 shadow-sm">
        <div className="mb-6 flex flex-col items-center gap-3 text-center">
          <span className="grid size-14 place-items-center rounded-2xl bg-teal-700 text-white" aria-hidden>
            <CalendarCheck className="size-7" />
          </span>
          <h1 className="text-2xl font-bold text-slate-900">Shift Coverage</h1>
          <p className="text-slate-600">Residential Support Shift Management</p>
        </div>
        <ul className="mb-8 grid gap-3">
          {features.map(({ icon: Icon, text }) => (
            <li key={text} className="flex items-center gap-3 text-slate-700">
              <Icon className="size-5 shrink-0 text-teal-700" aria-hidden />
              {text}
            </li>
          ))}
        </ul>
        <Link to="/login" className={buttonVariants({ size: 'lg', className: 'w-full' })}>
          Sign In to Continue
        </Link>
      </div>
      <p className="mt-6 text-sm text-slate-500">
        Secure authentication powered by your organization's system
      </p>
    </main>
  );
}
