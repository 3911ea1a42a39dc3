/** Word lists for the demo trainers; combined by a seeded generator, so every run is the same. */
export const MALE_NAMES = [
  'Omar',
  'Karim',
  'Youssef',
  'Ahmed',
  'Mostafa',
  'Hassan',
  'Tarek',
  'Amr',
  'Sherif',
  'Khaled',
  'Mahmoud',
  'Ziad',
  'Adham',
  'Seif',
  'Hany',
  'Ramy',
];
export const FEMALE_NAMES = [
  'Nadia',
  'Mariam',
  'Salma',
  'Laila',
  'Yasmin',
  'Nour',
  'Farida',
  'Hana',
  'Dina',
  'Rana',
  'Aya',
  'Malak',
  'Habiba',
  'Reem',
  'Jana',
  'Mona',
];
export const LAST_NAMES = [
  'Farouk',
  'Hassan',
  'Samir',
  'Mansour',
  'Fathy',
  'Ibrahim',
  'Naguib',
  'Shawky',
  'Zaki',
  'Lotfy',
  'Saleh',
  'Abdelaziz',
  'Fouad',
  'Ragab',
  'Helmy',
  'Kamel',
  'Soliman',
  'Tawfik',
];
export const TITLES = [
  'Strength coach',
  'Yoga teacher',
  'Boxing coach',
  'Running coach',
  'CrossFit coach',
  'Pilates instructor',
  'Weight-loss coach',
  'Calisthenics coach',
  'Mobility specialist',
  'Powerlifting coach',
  'Swim coach',
  'Prenatal fitness',
  'Kettlebell coach',
  'HIIT trainer',
  'Rehab trainer',
  'Bodybuilding coach',
];
const FOCUS: Record<string, string> = {
  'Strength coach': 'barbell basics: squat, press and pull with clean form',
  'Yoga teacher': 'vinyasa and yin sessions that build strength and calm',
  'Boxing coach': 'footwork, combinations and conditioning on the pads',
  'Running coach': 'your first 5K, a faster 10K or a half marathon plan',
  'CrossFit coach': 'varied, intense workouts with scaled options for everyone',
  'Pilates instructor': 'core control, posture and mat Pilates',
  'Weight-loss coach': 'sustainable fat loss with training and simple food habits',
  'Calisthenics coach': 'your first pull-up, muscle-up or handstand',
  'Mobility specialist': 'stiff hips, tight shoulders and moving without pain',
  'Powerlifting coach': 'meet preparation and heavy singles done safely',
  'Swim coach': 'technique for adults, from first lengths to open water',
  'Prenatal fitness': 'safe training before and after pregnancy',
  'Kettlebell coach': 'swings, get-ups and snatches for strength and stamina',
  'HIIT trainer': 'short, hard sessions that fit a busy day',
  'Rehab trainer': 'getting back to training after an injury',
  'Bodybuilding coach': 'hypertrophy programmes and contest preparation',
};
export const YEARS = ['Three', 'Four', 'Five', 'Six', 'Eight', 'Ten', 'Twelve', 'Fifteen'];
export const REVIEW_COMMENTS: Record<number, string[]> = {
  5: [
    'Best coach I have had. Every session is planned around my goals.',
    'Patient, punctual and really knows the craft. Highly recommended!',
    'I finally did my first pull-up after six weeks. Thank you!',
    'Great energy and clear explanations. I look forward to every session.',
  ],
  4: [
    'Very good sessions and a clear plan. Sometimes hard to book evenings.',
    'Knowledgeable and friendly; my form has improved a lot.',
    'Solid programming and good feedback between sessions.',
  ],
  3: ['Good workouts, but I would like more variety.', 'Decent coach; communication could be quicker.'],
  2: ['Sessions started late twice. The training itself was fine.'],
  1: ['Not the right fit for me; the plan ignored my knee injury.'],
};

/**
 * How a description opens: who it is for and the specialty come first, so a one-line clamp on a
 * card keeps the useful part. Each opener starts with its own two words.
 */
const OPENERS: Array<(focus: string) => string> = [
  (f) => `Complete beginners welcome: ${f}.`,
  (f) => `Busy professionals get ${f}, in 45-minute sessions.`,
  (f) => `New to training? Start with ${f}.`,
  (f) => `Women over 40: ${f}, at your pace.`,
  (f) => `Desk workers, this is for you: ${f}.`,
  (f) => `Students on a budget: ${f}.`,
  (f) => `Coming back after a break? We rebuild with ${f}.`,
  (f) => `Adults of every level trust me with ${f}.`,
  (f) => `Parents short on time: ${f}, at home or in the gym.`,
  (f) => `Serious about results? Focused coaching in ${f}.`,
  (f) => `Former athletes who miss competing: ${f}.`,
  (f) => `Nervous about the gym? I coach ${f}, one step at a time.`,
  (f) => `Shift workers, early or late: ${f}.`,
  (f) => `Seniors keeping active: ${f}, gently and safely.`,
  (f) => `Runners, cyclists and swimmers use my sessions for ${f}.`,
  (f) => `Couples and friends train together here: ${f}.`,
  (f) => `Online or in person, I teach ${f}.`,
  (f) => `Every session targets ${f}.`,
  (f) => `My clients come for ${f} and stay for the results.`,
  (f) => `Small groups of three get ${f}.`,
  (f) => `Ready for a change? Try ${f}.`,
  (f) => `Weekend warriors: ${f}, without the aches on Monday.`,
  (f) => `Any age, any level: ${f}.`,
  (f) => `First-timers and advanced clients alike: ${f}.`,
  (f) => `Plan-lovers get ${f}, with a written programme every month.`,
  (f) => `Morning people: ${f} before work.`,
];

/** What follows the useful part: experience and how the sessions run. */
const CLOSERS = [
  (years: string) => `${years} years of coaching.`,
  (years: string) => `In the job for ${years.toLowerCase()} years, one client at a time.`,
  (years: string) => `${years} years on the gym floor; sessions in English or Arabic.`,
  (years: string) => `Coaching for ${years.toLowerCase()} years, with progress checks every month.`,
  () => 'First session is a free movement check.',
  () => 'Evening and weekend slots.',
];

/** A demo trainer's description: at most 200 characters, the specialty and audience first. */
export function demoDescription(index: number, title: string, years: string): string {
  const focus = FOCUS[title] ?? 'training that fits your goals';
  const text = `${OPENERS[index % OPENERS.length](focus)} ${CLOSERS[(index * 5 + 1) % CLOSERS.length](years)}`;
  return text.length <= 200 ? text : `${text.slice(0, 199).replace(/\s+\S*$/, '')}…`;
}
