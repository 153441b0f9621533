import { ModalsProvider } from '@mantine/modals';

/** Loaded once someone is signed in (see OverlayHosts). */
export default function ModalsHost() {
  return <ModalsProvider>{null}</ModalsProvider>;
}
