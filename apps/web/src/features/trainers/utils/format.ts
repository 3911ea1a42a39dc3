const count = new Intl.NumberFormat('en-US');

export const formatCount = (n: number) => count.format(n);

export const formatPrice = (price: number) => `$${count.format(price)}`;

/** "4.8"; averages are shown with one decimal. */
export const formatRating = (rating: number) => rating.toFixed(1);

export const plural = (n: number, one: string, many: string) => `${formatCount(n)} ${n === 1 ? one : many}`;

const date = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });

export const formatDate = (iso: string) => {
  const value = new Date(iso);
  return Number.isNaN(value.getTime()) ? '' : date.format(value);
};
