// What app.ts, the command line and other modules may use of the console module (docs/architecture.md#routes-services-repos).
export { consoleRoutes } from './console.routes';
export { overviewRoutes } from './overview.routes';
export type { MoneyHooks } from './money';
export { addOperator, removeOperatorByEmail, writeAudit, type ConsoleDeps } from './operators';
export type { PeopleHooks } from './people';
export { requireOperator } from './require-operator';
