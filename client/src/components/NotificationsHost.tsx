import { Notifications } from '@mantine/notifications';

/** Loaded after the first paint (see OverlayHosts). */
export default function NotificationsHost() {
  return <Notifications position="top-right" />;
}
