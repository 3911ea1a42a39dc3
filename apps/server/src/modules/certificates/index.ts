// What app.ts may use of the certificates module (docs/architecture.md#routes-services-repos).
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config';
import type { Tx } from '../../db/client';
import type { JobRunner } from '../../platform/jobs';
import type { RateLimits } from '../../platform/rate-limits';
import type { Auth } from '../../plugins/auth';
import type { ConsoleDeps } from '../console';
import type { ImagesService } from '../images';
import type { Mailer } from '../mail';
import { createCertificateFiles } from './certificate-file';
import { CERTIFICATE_JOBS } from './certificate-jobs';
import { certificatesRoutes } from './certificates.routes';
import { createCertificatesService } from './certificates.service';
import { consoleCertificatesRoutes } from './console-certificates.routes';

type Deps = {
  console: ConsoleDeps;
  auth: Auth;
  limits: Pick<RateLimits, 'limit' | 'writes'>;
  jobs: JobRunner;
  mailer: Mailer;
  images: Pick<ImagesService, 'reencode'>;
  config: Pick<Config, 'dataDir' | 'publicUrl'>;
};

/**
 * The accounts module's deletion hook (wired in app.ts): a deleted trainer's certificates, files and
 * rows, are removed by a durable job enqueued in the deletion's transaction.
 */
export const purgeCertificatesOf = (jobs: JobRunner, tx: Tx, trainerId: string, at: Date) =>
  jobs.enqueue(tx, { kind: CERTIFICATE_JOBS.purge, runAt: at, payload: { trainerId } });

/**
 * Trainers' certificates and the 'Verified coach' badge (docs/product.md#verified-coaches): the
 * trainer's and the operators' routes, and the jobs that mail decisions and reminders and take the
 * badge away on expiry.
 */
export function certificatesModule(deps: Deps) {
  return async function (app: FastifyInstance) {
    const service = createCertificatesService({
      db: deps.console.db,
      jobs: deps.jobs,
      mailer: deps.mailer,
      images: deps.images,
      files: createCertificateFiles(deps.config.dataDir),
      publicUrl: deps.config.publicUrl,
      now: deps.console.now,
      log: app.log,
    });
    deps.jobs.register(CERTIFICATE_JOBS.decidedMail, ({ certificateId }) => service.sendDecidedMail(certificateId));
    deps.jobs.register(CERTIFICATE_JOBS.remind, ({ certificateId }, { now }) => service.remind(certificateId, now));
    deps.jobs.register(CERTIFICATE_JOBS.expired, ({ trainerId }, { now }) => service.expire(trainerId, now));
    deps.jobs.register(CERTIFICATE_JOBS.purge, ({ trainerId }) => service.purgeOf(trainerId));
    await app.register(certificatesRoutes(service, deps.auth, deps.limits));
    await app.register(consoleCertificatesRoutes(service, deps.console, deps.auth, deps.limits));
  };
}
