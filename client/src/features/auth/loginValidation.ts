import { loginBody } from '@helpdesk/protocol';
import { schemaResolver } from '../../lib/schemaResolver';

/** Loaded after the login page has rendered (see useLazyValidation). */
export const validateLogin = schemaResolver(loginBody);
