import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createQueryClient } from './api/queryClient';
import { App } from './App';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// A transition, so React renders the first screen in slices and a tap or keypress meanwhile is
// answered at once instead of after the whole screen (on a slow phone, a quarter of a second).
startTransition(() => {
  createRoot(root).render(
    <StrictMode>
      <App queryClient={createQueryClient()} />
    </StrictMode>,
  );
});
