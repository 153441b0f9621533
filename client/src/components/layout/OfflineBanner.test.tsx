import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '@helpdesk/protocol';
import { AppProviders } from '../../App';
import { liveRefusalAtom, liveRetryAtom, liveStatusAtom } from '../../realtime/liveStatus';
import { store } from '../../state/store';
import { OFFLINE_GRACE_MS, OFFLINE_TEXT, OfflineBanner } from './OfflineBanner';

const renderBanner = () =>
  render(
    <AppProviders queryClient={new QueryClient()}>
      <OfflineBanner />
    </AppProviders>,
  );

describe('the offline banner', () => {
  afterEach(() => {
    vi.useRealTimers();
    act(() => {
      store.set(liveStatusAtom, 'connecting');
      store.set(liveRefusalAtom, null);
      store.set(liveRetryAtom, null);
    });
  });

  it('waits out a short reconnect, then says live updates are offline and retries on demand', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const retry = vi.fn();
    act(() => {
      store.set(liveRetryAtom, { retry });
      store.set(liveStatusAtom, 'disconnected');
    });
    renderBanner();
    expect(screen.queryByTestId('offline-banner')).not.toBeInTheDocument();
    act(() => {
      vi.advanceTimersByTime(OFFLINE_GRACE_MS + 10);
    });
    expect(screen.getByRole('alert')).toHaveTextContent(OFFLINE_TEXT.title);
    expect(screen.getByRole('alert')).toHaveTextContent(OFFLINE_TEXT.waiting);
    await userEvent.click(screen.getByRole('button', { name: OFFLINE_TEXT.retry }));
    expect(retry).toHaveBeenCalledTimes(1);

    act(() => store.set(liveStatusAtom, 'connected'));
    expect(screen.queryByTestId('offline-banner')).not.toBeInTheDocument();
  });

  it('shows the server’s refusal at once, in its own words', () => {
    act(() => {
      store.set(liveStatusAtom, 'disconnected');
      store.set(liveRefusalAtom, MESSAGES.auth.tooManyConnections);
    });
    renderBanner();
    expect(screen.getByRole('alert')).toHaveTextContent(MESSAGES.auth.tooManyConnections);
  });
});
