import './zod-config';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { onUnauthorized } from './api/client';
import { startOfflineSupport } from './api/offline-support';
import { queryClient } from './api/query-client';
import { sendToLogin } from './features/auth/guards';
import { prepareClassMerging } from './lib/cn';
import { keepFocusOnScreen } from './lib/focus';
import { router } from './router';
import './styles.css';

onUnauthorized(sendToLogin);
keepFocusOnScreen();
startOfflineSupport();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
prepareClassMerging();
