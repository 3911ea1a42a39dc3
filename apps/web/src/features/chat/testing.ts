import type { TChatMessage, TConversation } from '@spotter/shared';

/** A token the way the server signs them (claims `id` and `role`); the signature is not checked here. */
export const tokenFor = (id: string, role: 'user' | 'trainer') => `e30.${btoa(JSON.stringify({ id, role }))}.sig`;

export function logInAs(id: string, role: 'user' | 'trainer') {
  localStorage.setItem('token', tokenFor(id, role));
  localStorage.setItem('userType', role);
}

export const makeMessage = (overrides: Partial<TChatMessage> = {}): TChatMessage => ({
  _id: 'm1',
  senderId: 'u1',
  recipientId: 't1',
  message: 'Hello coach',
  messageDate: '2025-01-10T10:00:00.000Z',
  senderFirstName: 'Mona',
  senderLastName: 'Adel',
  senderPicture: '',
  readAt: null,
  ...overrides,
});

export const makeConversation = (overrides: Partial<TConversation> = {}): TConversation => ({
  counterpartId: 'u1',
  firstName: 'Mona',
  lastName: 'Adel',
  picture: '',
  lastMessage: 'Hello coach',
  lastMessageDate: new Date().toISOString(),
  unread: 0,
  ...overrides,
});

/** A clientMessageId as the composer picks them (crypto.randomUUID). */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
