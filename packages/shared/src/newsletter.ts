import { z } from 'zod';
import { EmailSchema } from './fields';

export const ZNewsletterRequest = z.object({ email: EmailSchema });
export const NEWSLETTER_MSG = { subscribed: 'Thanks! You are on the list.' } as const;
