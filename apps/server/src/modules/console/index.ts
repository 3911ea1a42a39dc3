// What app.ts and the command line may use of the console module (docs/architecture.md#routes-services-repos).
export { consoleRoutes } from './console.routes';
export { addOperator, removeOperatorByEmail } from './operators';
