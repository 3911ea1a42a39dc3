// What app.ts may use of the settings module (docs/architecture.md#routes-services-repos).
export { settingsRoutes } from './settings.routes';
export { createSettingsService, recordSignUpWeight } from './settings.service';
