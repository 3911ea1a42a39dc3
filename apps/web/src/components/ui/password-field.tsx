import { Eye, EyeOff } from 'lucide-react';
import { useState } from 'react';
import { TextField, type TextFieldProps } from './field';

type PasswordToggleProps = {
  isVisible: boolean;
  onToggle: () => void;
  /** Ids of the inputs this button reveals. */
  controls: string;
};

function PasswordToggle({ isVisible, onToggle, controls }: PasswordToggleProps) {
  const Icon = isVisible ? EyeOff : Eye;
  return (
    <button
      type="button"
      onClick={onToggle}
      aria-label={isVisible ? 'Hide password' : 'Show password'}
      aria-controls={controls}
      className="inline-flex size-11 items-center justify-center rounded-lg text-muted hover:text-ink"
    >
      <Icon className="size-5" aria-hidden="true" />
    </button>
  );
}

type PasswordFieldProps = Omit<TextFieldProps, 'type' | 'suffix'> & {
  id: string;
  /** Controlled visibility, so one toggle can reveal a password and its confirmation. */
  isVisible?: boolean;
  onVisibleChange?: (visible: boolean) => void;
  /** Whether this field carries the toggle button (default true). */
  hasToggle?: boolean;
  /** Extra input ids the toggle reveals, besides this one. */
  alsoControls?: string[];
};

export function PasswordField({
  id,
  isVisible,
  onVisibleChange,
  hasToggle = true,
  alsoControls = [],
  ...props
}: PasswordFieldProps) {
  const [ownVisible, setOwnVisible] = useState(false);
  const visible = isVisible ?? ownVisible;
  const setVisible = onVisibleChange ?? setOwnVisible;
  return (
    <TextField
      id={id}
      type={visible ? 'text' : 'password'}
      autoCapitalize="none"
      autoCorrect="off"
      spellCheck={false}
      suffix={
        hasToggle ? (
          <PasswordToggle isVisible={visible} onToggle={() => setVisible(!visible)} controls={[id, ...alsoControls].join(' ')} />
        ) : undefined
      }
      {...props}
    />
  );
}
