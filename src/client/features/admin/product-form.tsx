import { type FormEvent, useId, useRef, useState } from 'react';
import type { Category } from '../../../shared/finding';
import type { AdminProduct, NewProduct } from '../../../shared/products';
import { Alert } from '../../components/alert';
import { Field } from '../../components/field';
import { ApiError, messageOf } from '../../lib/api';
import { useFormat } from '../../lib/shop';
import { checkProduct, isShownField, type ProductValues, problemKey, rowKey, valuesOf } from './product-form-values';
import { guideHint } from './size-guide-text';
import { SizeRows } from './size-rows';
import { useFocusAfterRender } from './use-focus-after-render';

interface ProductFormProps {
  /** The id of the heading that names the form. */
  labelledBy: string;
  /** The product the form starts from; none for a new product. */
  product?: AdminProduct;
  /** What the button says. */
  submit: string;
  /**
   * Saves what the owner entered, once it passes the shared rules; the product as saved, which the form shows from
   * then on (none when the page moves on).
   */
  save(input: NewProduct): Promise<AdminProduct | undefined>;
  /** What to say once saved. */
  savedMessage?(product: AdminProduct): string;
  /** Fills the form again from the product as it now is, for an owner told that someone else changed it. */
  onReload?(): void;
  /** The shop's categories, to tick the product's; none: the form leaves them as they are. */
  categories?: readonly Category[];
}

type Message = { kind: 'status' | 'alert'; text: string; changed?: boolean };

/**
 * The owner's form of a product (docs/product.md §13): name, details, price, shown or hidden, and its sizes with
 * their stock. Each problem shows next to its field, by the rules the server applies too (src/shared/products.ts);
 * nothing is sent while any field has one.
 */
export function ProductForm({
  labelledBy,
  product,
  submit,
  save,
  savedMessage,
  onReload,
  categories,
}: ProductFormProps) {
  const format = useFormat();
  const [values, setValues] = useState<ProductValues>(() => valuesOf(product, format));
  // The fields typed in or left, whose problems show; all of them once the owner has tried to save.
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const [tried, setTried] = useState(false);
  // What the server said about one field (product/invalid), until that field changes.
  const [serverProblem, setServerProblem] = useState<{ key: string; text: string } | null>(null);
  const [message, setMessage] = useState<Message | null>(null);
  const [busy, setBusy] = useState(false);
  const sending = useRef(false);
  const form = useRef<HTMLFormElement>(null);
  const addSize = useRef<HTMLButtonElement>(null);
  const focusNext = useFocusAfterRender();
  const shownId = useId();

  const { input, problems } = checkProduct(values, categories !== undefined, format);
  const categoriesId = useId();

  function problemAt(key: string): string | undefined {
    if (!tried && !touched.has(key)) return undefined;
    return problems[key] ?? (serverProblem?.key === key ? serverProblem.text : undefined);
  }

  function edited(key: string, change: (current: ProductValues) => ProductValues) {
    setValues(change);
    setTouched((current) => new Set(current).add(key));
    setServerProblem((current) => (current?.key === key || key === 'sizes' ? null : current));
    setMessage((current) => (current?.kind === 'status' ? null : current));
  }

  function left(key: string) {
    setTouched((current) => (current.has(key) ? current : new Set(current).add(key)));
  }

  function text(key: 'name' | 'details' | 'price' | 'weight' | 'guide') {
    // The price is typed in dollars; the rules, and the server, speak of it in cents (and of the weight in grams).
    const at = { name: 'name', details: 'details', price: 'priceCents', weight: 'weightGrams', guide: 'sizeGuide' }[
      key
    ];
    return {
      name: key,
      value: values[key],
      error: problemAt(at),
      announceError: true,
      onChange: (event: { target: { value: string } }) => {
        const { value } = event.target;
        edited(at, (current) => ({ ...current, [key]: value }));
      },
      onBlur: () => left(at),
    };
  }

  async function submitForm(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (sending.current) return;
    setTried(true);
    setMessage(null);
    if (!input) {
      // The first field with a problem, in the order of the form; the list of sizes as a whole has its button.
      focusNext(
        () =>
          form.current?.querySelector<HTMLElement>('[aria-invalid="true"]') ??
          (problems.sizes ? addSize.current : null),
      );
      return;
    }
    const rows = values.sizes;
    sending.current = true;
    setBusy(true);
    try {
      const saved = await save(input);
      if (saved) {
        setValues(valuesOf(saved, format));
        setTouched(new Set());
        setTried(false);
        setServerProblem(null);
        setMessage({ kind: 'status', text: savedMessage?.(saved) ?? 'Saved.' });
      }
    } catch (error) {
      if (error instanceof ApiError && error.code === 'product/invalid' && error.field) {
        const key = error.field.startsWith('sizeGuide') ? 'sizeGuide' : problemKey(error.field.split('.'), rows);
        if (isShownField(key, rows)) {
          setServerProblem({ key, text: error.message });
          focusNext(() => form.current?.querySelector<HTMLElement>('[aria-invalid="true"]'));
        } else {
          setMessage({ kind: 'alert', text: error.message });
        }
      } else {
        setMessage({
          kind: 'alert',
          text: messageOf(error),
          changed: error instanceof ApiError && error.code === 'product/changed',
        });
      }
    }
    sending.current = false;
    setBusy(false);
  }

  return (
    <form ref={form} className="card form product-form" aria-labelledby={labelledBy} onSubmit={submitForm} noValidate>
      <Field label="Name" autoComplete="off" {...text('name')} />
      <Field label="Details" autoComplete="off" multiline {...text('details')} />
      <Field
        label="Price"
        autoComplete="off"
        inputMode="decimal"
        hint="In dollars and cents, like 303.00."
        {...text('price')}
      />
      <Field
        label="Weight in grams"
        autoComplete="off"
        inputMode="numeric"
        hint="As shipped, with its packing."
        {...text('weight')}
      />
      <div className="choice">
        <input
          type="checkbox"
          id={shownId}
          checked={values.shown}
          aria-describedby={`${shownId}-hint`}
          onChange={(event) => {
            const { checked } = event.target;
            edited('shown', (current) => ({ ...current, shown: checked }));
          }}
        />
        <label htmlFor={shownId}>Shown on the home page</label>
        <p id={`${shownId}-hint`} className="field-hint">
          A hidden product leaves the home page; riders who have it in their carts are told it is no longer available.
        </p>
      </div>
      {categories && categories.length > 0 && (
        <fieldset className="choices" aria-describedby={`${categoriesId}-hint`}>
          <legend>Categories</legend>
          <p id={`${categoriesId}-hint`} className="field-hint">
            Riders find the product under each category ticked, and by the categories' names.
          </p>
          {categories.map((category) => (
            <div className="choice" key={category.slug}>
              <input
                type="checkbox"
                id={`${categoriesId}-${category.slug}`}
                checked={values.categories.includes(category.slug)}
                onChange={(event) => {
                  const { checked } = event.target;
                  edited('categories', (current) => ({
                    ...current,
                    categories: checked
                      ? [...current.categories, category.slug]
                      : current.categories.filter((slug) => slug !== category.slug),
                  }));
                }}
              />
              <label htmlFor={`${categoriesId}-${category.slug}`}>{category.name}</label>
            </div>
          ))}
        </fieldset>
      )}
      <Field
        label="Size guide"
        autoComplete="off"
        multiline
        hint={`${guideHint} Leave it empty for the guide of its first category.`}
        {...text('guide')}
      />
      <SizeRows
        rows={values.sizes}
        problemAt={problemAt}
        addSize={addSize}
        onEdit={(key, sizes) => edited(key, (current) => ({ ...current, sizes: sizes(current.sizes) }))}
        onLeave={left}
        onAdd={() => {
          const key = rowKey();
          edited('sizes', (current) => ({ ...current, sizes: [...current.sizes, { key, size: '', stock: '0' }] }));
          focusNext(() => form.current?.querySelector<HTMLElement>(`[name="${key}-size"]`));
        }}
        focusNext={focusNext}
      />
      {message && (
        <Alert kind={message.kind}>
          {message.text}
          {message.changed && onReload && (
            <>
              {' '}
              <button type="button" className="button button-quiet" onClick={onReload}>
                Reload the product
              </button>
            </>
          )}
        </Alert>
      )}
      <p>
        <button type="submit" className="button" disabled={busy}>
          {submit}
        </button>
      </p>
    </form>
  );
}
