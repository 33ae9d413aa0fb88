import { Link } from '@tanstack/react-router';
import { AlertCircle } from 'lucide-react';
import { MAIN_ID } from '../../lib/focus';

export function NotFoundPage() {
  return (
    <main
      id={MAIN_ID}
      tabIndex={-1}
      className="outline-none flex min-h-[60dvh] items-center justify-center px-4"
    >
      <div className="w-full max-w-md rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
        <h1 className="flex items-center gap-2 text-2xl font-bold text-slate-900">
          <AlertCircle className="size-7 text-red-500" aria-hidden /> 404 Page Not Found
        </h1>
        <p className="mt-4 text-sm text-slate-600">Did you forget to add the page to the router?</p>
        <Link to="/" className="mt-4 inline-block text-sm font-medium text-teal-700 hover:underline">
          Back to the dashboard
        </Link>
      </div>
    </main>
  );
}
