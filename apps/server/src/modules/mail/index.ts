// What other modules and app.ts may use of the mail module (docs/architecture.md#routes-services-repos).
export { createMailer, passwordResetMail, verificationMail, type Mail, type Mailer } from './mail.service';
