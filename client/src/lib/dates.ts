import dayjs from 'dayjs';
import relativeTime from 'dayjs/plugin/relativeTime';

dayjs.extend(relativeTime);

export const formatDate = (iso: string): string => dayjs(iso).format('MMM D, YYYY');
export const formatDateTime = (iso: string): string => dayjs(iso).format('MMM D, YYYY h:mm A');
export const fromNow = (iso: string): string => dayjs(iso).fromNow();
