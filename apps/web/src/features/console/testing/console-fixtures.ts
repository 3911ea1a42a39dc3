import type {
  TAuditEntry,
  TConsoleCertificate,
  TConsoleReport,
  TPersonDetail,
  TPersonPageResponse,
  TPersonSummary,
} from '@spotter/shared';
import { jsonResponse } from '@/testing/render';

export const TOKEN = 'console.token.1';
const EMAIL = 'ops@example.com';

export const meRoute = (url: URL) =>
  url.pathname === '/api/console/me' ? jsonResponse({ operator: { _id: 'op1', email: EMAIL } }) : undefined;

export const makePersonSummary = (overrides: Partial<TPersonSummary> = {}): TPersonSummary => ({
  _id: 'p1',
  role: 'trainer',
  firstName: 'Nadia',
  lastName: 'Samir',
  email: 'nadia@example.com',
  city: 'Cairo',
  status: 'active',
  createdAt: '2026-10-01T10:00:00.000Z',
  openReports: 0,
  ...overrides,
});

export const makePerson = (overrides: Partial<TPersonDetail> = {}): TPersonDetail => ({
  ...makePersonSummary(),
  phone: '1001234567',
  title: 'Strength coach',
  description: 'I help you lift safely.',
  picture: '',
  emailVerified: true,
  suspendedAt: null,
  suspensionReason: null,
  profileHidden: false,
  priceCents: 15050,
  ratingAvg: 4.5,
  ratingCount: 2,
  ...overrides,
});

export const makeReport = (overrides: Partial<TConsoleReport> = {}): TConsoleReport => ({
  _id: 'r1',
  kind: 'review',
  itemId: 'rv1',
  reason: 'harassment',
  note: 'Rude words about me',
  status: 'open',
  createdAt: '2026-11-28T10:00:00.000Z',
  reporterId: 'p2',
  reporterName: 'Mariam Hassan',
  subjectId: 'p1',
  subjectName: 'Nadia Samir',
  itemText: 'Terrible trainer, do not go',
  itemRating: 1,
  itemHidden: false,
  itemReports: 1,
  decidedAt: null,
  decisionReason: null,
  ...overrides,
});

export const makeAuditEntry = (overrides: Partial<TAuditEntry> = {}): TAuditEntry => ({
  _id: 'a1',
  at: '2026-11-29T10:00:00.000Z',
  operatorId: 'op1',
  operatorEmail: EMAIL,
  action: 'person.suspend',
  targetKind: 'user',
  targetId: 'p1',
  reason: 'spam in messages',
  before: null,
  after: null,
  ...overrides,
});

export const makePersonPage = (overrides: Partial<TPersonPageResponse> = {}): TPersonPageResponse => ({
  person: makePerson(),
  bookings: [],
  payments: [],
  reviews: [],
  reports: [],
  audit: [],
  ...overrides,
});

export const makeCertificate = (overrides: Partial<TConsoleCertificate> = {}): TConsoleCertificate => ({
  _id: 'c1',
  issuer: 'National Academy of Sports Medicine',
  expiresOn: '2027-06-30',
  status: 'pending',
  current: false,
  mime: 'application/pdf',
  bytes: 120_000,
  createdAt: '2026-11-28T10:00:00.000Z',
  decidedAt: null,
  decisionReason: null,
  trainerId: 'p1',
  trainerName: 'Nadia Samir',
  trainerEmail: 'nadia@example.com',
  ...overrides,
});
