import { Notifications } from '@mantine/notifications';

/** Loaded after the first paint (see OverlayHosts). Bottom right: a toast never covers the header's bell or account menu. */
export default function NotificationsHost() {
  return <Notifications position="bottom-right" />;
}
