// What app.ts may use of the chats module (docs/architecture.md#routes-services-repos).
export { chatsModule } from './chats.module';
