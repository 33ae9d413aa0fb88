import './zod-config';
import { QueryClientProvider } from '@tanstack/react-query';
import { lazyRouteComponent, RouterProvider } from '@tanstack/react-router';
import { StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { onUnauthorized } from './api/client';
import { queryClient } from './api/query-client';
import { sendToLogin } from './features/auth/guards';
import { keepFocusOnScreen } from './lib/focus';
import { router } from './router';
import './styles.css';

// Fetched beside the first screen rather than before it; toasts raised meanwhile wait in the queue.
const Toaster = lazyRouteComponent(() => import('./features/toast/toaster'), 'Toaster');

onUnauthorized(sendToLogin);
keepFocusOnScreen();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <Suspense fallback={null}>
        <Toaster />
      </Suspense>
    </QueryClientProvider>
  </StrictMode>,
);
