/**
 * The fixed choices forms and filters offer (cities, the default country, genders), apart from the
 * schemas that check them so that a screen can offer them without loading zod
 * (docs/decisions/028-lean-first-screen-fonts-and-forms.md, docs/decisions/029-trainer-list-address-without-zod.md).
 */
/** The cities the list's filter offers, and the suggestions of every city field (free text). */
export const CITY_SUGGESTIONS = [
  'Cairo',
  'Giza',
  'Alexandria',
  'Mansoura',
  'Tanta',
  'Zagazig',
  'Port Said',
  'Suez',
  'Ismailia',
  'Luxor',
  'Aswan',
  'Hurghada',
  'Sharm El Sheikh',
  'Asyut',
  'Faiyum',
] as const;
/**
 * The same list under its first name (the list's filter still imports it).
 * @alias
 */
export const EGYPT_CITIES = CITY_SUGGESTIONS;

/** What a new account's country is when none is given. */
export const DEFAULT_COUNTRY = 'Egypt';

/** The genders an account has and the trainer list filters by. */
export const GENDERS = ['male', 'female'] as const;
