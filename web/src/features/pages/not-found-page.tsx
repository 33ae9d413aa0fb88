import { Link } from '@tanstack/react-router';
import { AlertCircle } from 'lucide-react';
import { MessagePage } from '../../components/ui/feedback';

export function NotFoundPage() {
  return (
    <MessagePage
      icon={<AlertCircle className="size-7 text-red-500" aria-hidden />}
      title="404 Page Not Found"
    >
      <p className="mt-4 text-sm text-slate-600">Did you forget to add the page to the router?</p>
      <Link to="/" className="mt-4 inline-block text-sm font-medium text-teal-700 hover:underline">
        Back to the dashboard
      </Link>
    </MessagePage>
  );
}
