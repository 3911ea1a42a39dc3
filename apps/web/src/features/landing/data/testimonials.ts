type Testimonial = { name: string; context: string; quote: string; rating: number };

/** Static stories (docs/product.md#numbers-from-data); six, as docs/product.md#limits says. */
export const testimonials: Testimonial[] = [
  {
    name: 'Hana M.',
    context: 'Strength training, 8 months',
    quote:
      'I had never touched a barbell. My coach started me with an empty bar and a notebook. Last month I deadlifted my own body weight.',
    rating: 5,
  },
  {
    name: 'Omar S.',
    context: 'Fat loss, 6 months',
    quote:
      'Chatting with three trainers before booking made all the difference. I picked the one who asked about my night shifts, and I am 11 kg lighter.',
    rating: 5,
  },
  {
    name: 'Laila K.',
    context: 'Back to training after pregnancy',
    quote:
      'The reviews told me which coaches really understood postnatal training. Sessions are calm, patient and always on time.',
    rating: 5,
  },
  {
    name: 'Ahmed R.',
    context: 'Marathon preparation',
    quote:
      'My running coach built strength work around my mileage. First marathon finished, no injuries, and I am already booked for the next block.',
    rating: 4,
  },
  {
    name: 'Mariam E.',
    context: 'Mobility and back pain',
    quote:
      'Ten minutes of mobility every morning and two sessions a week. For the first time in years I sit through a workday without back pain.',
    rating: 5,
  },
  {
    name: 'Tarek F.',
    context: 'Boxing conditioning',
    quote:
      'Booking and rescheduling take seconds, and cancelling the day before a work trip cost me nothing. That is why I stayed.',
    rating: 4,
  },
];
