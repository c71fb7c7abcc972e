/** Renders the fields of an elicitation form (hub/form-schema.ts) with native, labelled inputs. */
import type { FormField, FormValue } from '../hub/form-schema.js';
import { isChecked, numberText } from '../hub/form-schema.js';
import { t } from '../i18n.js';

function ChoiceField({
  f,
  value,
  set,
}: {
  f: Extract<FormField, { type: 'choice' }>;
  value: FormValue | undefined;
  set: (v: FormValue) => void;
}) {
  const picked = Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
  return (
    <fieldset class="choices" data-testid="form-choice" data-key={f.key}>
      <legend>{f.title}</legend>
      {f.description ? <p class="muted small">{f.description}</p> : null}
      {f.options.map((o) => (
        <label class="choice" key={o.value}>
          <input
            type={f.multi ? 'checkbox' : 'radio'}
            name={f.key}
            value={o.value}
            checked={picked.includes(o.value)}
            onChange={(e) => {
              if (!f.multi) set(o.value);
              else set(e.currentTarget.checked ? [...picked, o.value] : picked.filter((p) => p !== o.value));
            }}
          />
          <span>
            {o.label}
            {o.description ? <span class="muted small block">{o.description}</span> : null}
          </span>
        </label>
      ))}
    </fieldset>
  );
}

/** One form field. */
export function Field({ f, value, set }: { f: FormField; value: FormValue | undefined; set: (v: FormValue) => void }) {
  switch (f.type) {
    case 'choice':
      return <ChoiceField f={f} value={value} set={set} />;
    case 'text':
      return (
        <label class="field">
          <span>{f.title.replace(/^↳\s*/, '') || t('otherAnswer')}</span>
          {f.description ? <span class="muted small">{f.description}</span> : null}
          <textarea
            rows={2}
            name={f.key}
            value={typeof value === 'string' ? value : ''}
            onInput={(e) => set(e.currentTarget.value)}
            data-testid="form-text"
          />
        </label>
      );
    case 'number':
      return (
        <label class="field">
          <span>{f.title}</span>
          <input
            type="number"
            inputMode={f.integer ? 'numeric' : 'decimal'}
            name={f.key}
            value={numberText(value)}
            onInput={(e) => set(e.currentTarget.value)}
          />
        </label>
      );
    case 'boolean':
      return (
        <label class="choice">
          <input type="checkbox" name={f.key} checked={isChecked(value)} onChange={(e) => set(e.currentTarget.checked)} />
          <span>{f.title}</span>
        </label>
      );
  }
}
