import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZChangePasswordRequest,
  ZContactRequest,
  ZDeleteAccountRequest,
  ZEditPhotoRequest,
  ZEditProfileRequest,
  ZEditTrainerProfileRequest,
  ZErrorResponse,
  ZLoginResponse,
  ZMessageResponse,
  ZNotificationsRequest,
  ZWeightsResponse,
  SETTINGS_MSG,
  contactLimitMessage,
} from '@spotter/shared';
import { addRetryAfter } from '../../platform/failure-limiter';
import type { RateLimits } from '../../platform/rate-limits';
import { callerOf, type Auth } from '../../plugins/auth';
import type { SettingsService } from './settings.service';

const errors = { 400: ZErrorResponse, 401: ZErrorResponse, 403: ZErrorResponse, 409: ZErrorResponse, 429: ZErrorResponse };
/** Contact saves per account an hour: each one adds a point to the weight chart. */
export const CONTACT_SAVES_PER_HOUR = 30;

/** /api/user/* and /api/trainer/*: each answers only its own role (403 for the other). */
export function settingsRoutes(service: SettingsService, auth: Auth, limits: Pick<RateLimits, 'limit' | 'writes'>) {
  return async function (app: FastifyInstance) {
    const r = app.withTypeProvider<ZodTypeProvider>();
    // wrong passwords (change password, new e-mail, delete) are limited per account by the service
    app.addHook('onError', addRetryAfter);
    const contactSaves = limits.limit({
      name: 'contact-saves',
      max: CONTACT_SAVES_PER_HOUR,
      windowMs: 60 * 60_000,
      key: (req) => req.caller?.id,
      message: contactLimitMessage,
    });
    for (const role of ['user', 'trainer'] as const) {
      const mine = auth.requireAuth(role);
      const myWrites = [mine, ...limits.writes];
      const tags = ['settings'];

      r.patch(
        `/${role}/edit`,
        {
          schema: {
            tags,
            summary: 'Personal details: only the fields sent change; a new e-mail needs currentPassword',
            body: role === 'trainer' ? ZEditTrainerProfileRequest : ZEditProfileRequest,
            response: { 200: ZMessageResponse, ...errors },
          },
          preHandler: myWrites,
        },
        async (req) => ({ message: await service.editProfile(callerOf(req).id, role, req.body) }),
      );

      r.patch(
        `/${role}/edit/photo`,
        {
          schema: {
            tags,
            summary: 'Set the photo to an uploaded image',
            body: ZEditPhotoRequest,
            response: { 200: ZMessageResponse, ...errors },
          },
          preHandler: myWrites,
        },
        async (req) => ({ message: await service.setPhoto(callerOf(req).id, req.body.picture) }),
      );

      r.patch(
        `/${role}/contact`,
        {
          schema: {
            tags,
            summary: 'Phone, website, weight and height',
            body: ZContactRequest,
            response: { 200: ZMessageResponse, ...errors },
          },
          preHandler: [...myWrites, contactSaves],
        },
        async (req) => ({ message: await service.editContact(callerOf(req).id, req.body) }),
      );

      r.get(
        `/${role}/weights`,
        {
          schema: { tags, summary: 'Every saved weight, oldest first', response: { 200: ZWeightsResponse, ...errors } },
          preHandler: mine,
        },
        async (req) => ({ weights: await service.weights(callerOf(req).id) }),
      );

      r.patch(
        `/${role}/password`,
        {
          schema: {
            tags,
            summary: 'Change the password; older tokens stop working, a fresh one is answered',
            body: ZChangePasswordRequest,
            response: { 200: ZLoginResponse, ...errors },
          },
          preHandler: myWrites,
        },
        async (req) => ({
          message: SETTINGS_MSG.passwordChanged,
          token: await service.changePassword(callerOf(req).id, req.body.oldPassword, req.body.newPassword),
        }),
      );

      r.patch(
        `/${role}/notifications`,
        {
          schema: {
            tags,
            summary: 'Account and marketing e-mails',
            body: ZNotificationsRequest,
            response: { 200: ZMessageResponse, ...errors },
          },
          preHandler: myWrites,
        },
        async (req) => ({ message: await service.setNotifications(callerOf(req).id, req.body) }),
      );

      r.delete(
        `/${role}`,
        {
          schema: {
            tags,
            summary: 'Delete the account (password required)',
            body: ZDeleteAccountRequest,
            response: { 200: ZMessageResponse, ...errors },
          },
          preHandler: myWrites,
        },
        async (req) => ({ message: await service.deleteAccount(callerOf(req).id, req.body.password) }),
      );
    }
  };
}
