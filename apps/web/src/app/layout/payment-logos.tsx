/** Small card-brand badges for the footer; simple shapes, no third-party images. */
const badge = 'h-8 w-12 rounded-md bg-canvas';

export function PaymentLogos() {
  return (
    <ul className="flex flex-wrap items-center gap-2" aria-label="Accepted payment methods">
      <li>
        <svg role="img" aria-label="Visa" viewBox="0 0 48 32" className={badge}>
          <text
            x="24"
            y="21"
            textAnchor="middle"
            fontFamily="Arial, sans-serif"
            fontSize="13"
            fontWeight="800"
            fontStyle="italic"
            className="fill-brand-visa"
          >
            VISA
          </text>
        </svg>
      </li>
      <li>
        <svg role="img" aria-label="Mastercard" viewBox="0 0 48 32" className={badge}>
          <circle cx="19" cy="16" r="8" className="fill-brand-mc-red" />
          <circle cx="29" cy="16" r="8" className="fill-brand-mc-yellow" />
          <path d="M24 9.8a8 8 0 0 1 0 12.4a8 8 0 0 1 0-12.4z" className="fill-brand-mc-orange" />
        </svg>
      </li>
      <li>
        <svg role="img" aria-label="American Express" viewBox="0 0 48 32" className={badge}>
          <rect x="4" y="6" width="40" height="20" rx="3" className="fill-brand-amex" />
          <text
            x="24"
            y="20"
            textAnchor="middle"
            fontFamily="Arial, sans-serif"
            fontSize="9"
            fontWeight="800"
            className="fill-canvas"
          >
            AMEX
          </text>
        </svg>
      </li>
      <li>
        <svg role="img" aria-label="PayPal" viewBox="0 0 48 32" className={badge}>
          <text
            x="24"
            y="20"
            textAnchor="middle"
            fontFamily="Arial, sans-serif"
            fontSize="10"
            fontWeight="800"
            fontStyle="italic"
          >
            <tspan className="fill-brand-paypal-dark">Pay</tspan>
            <tspan className="fill-brand-paypal">Pal</tspan>
          </text>
        </svg>
      </li>
    </ul>
  );
}
