import './zod-config';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { onUnauthorized } from './api/client';
import { startOfflineSupport } from './api/offline-support';
import { queryClient } from './api/query-client';
import { sendToLogin } from './features/auth/guards';
import { currentUserQuery } from './features/auth/session';
import { prepareClassMerging } from './lib/cn';
import { keepFocusOnScreen } from './lib/focus';
import { router } from './router';
import './styles.css';

onUnauthorized(sendToLogin);
keepFocusOnScreen();
startOfflineSupport();

/**
 * How long the first draw waits for who is signed in. index.html asks for it beside the scripts,
 * so it is usually in by the time they have run: the first screen is then drawn as it will stay,
 * not a spinner first. A slow answer gets the spinner after this long.
 */
const FIRST_DRAW_WAIT_MS = 300;

/** Drawn in a transition, so React draws the first screen in slices and a tap is never kept waiting long. */
function draw() {
  const root = createRoot(document.getElementById('root')!);
  startTransition(() =>
    root.render(
      <StrictMode>
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </StrictMode>,
    ),
  );
}

void Promise.race([
  queryClient.prefetchQuery(currentUserQuery),
  new Promise((resolve) => setTimeout(resolve, FIRST_DRAW_WAIT_MS)),
]).then(draw);
prepareClassMerging();
