import { type FormEvent, useState } from 'react';
import { useLoaderData, useRevalidator } from 'react-router';
import { type AdminCategory, newCategorySchema } from '../../../shared/categories';
import { pages } from '../../../shared/pages';
import { Alert } from '../../components/alert';
import { DocumentTitle } from '../../components/document-title';
import { Field } from '../../components/field';
import { ApiError, call, messageOf } from '../../lib/api';
import { AdminNav } from './admin-nav';
import { MoveButtons, moved } from './move-buttons';
import { guideHint, guideText, parseGuide } from './size-guide-text';

export async function loader() {
  return call('adminCategories');
}

type Message = { kind: 'status' | 'alert'; text: string } | null;

/** The problems of a category's form, by field: the shared rules, then what the server said. */
function checkForm(name: string, guide: string) {
  const parsed = parseGuide(guide);
  const named = newCategorySchema.shape.name.safeParse(name);
  return {
    name: named.success ? undefined : named.error.issues[0]?.message,
    guide: 'problem' in parsed ? parsed.problem : undefined,
    input: named.success && 'guide' in parsed ? { name: named.data, sizeGuide: parsed.guide } : undefined,
  };
}

/** Where the server's field error goes: the name, or else the size guide. */
const fieldOf = (error: unknown) =>
  error instanceof ApiError && error.code === 'category/invalid'
    ? error.field?.startsWith('sizeGuide')
      ? 'guide'
      : 'name'
    : undefined;

/** A category's name and size guide: the form to add one, or to change one (`category` given). */
function CategoryForm({
  category,
  submit,
  onSaved,
}: {
  category?: AdminCategory;
  submit: string;
  onSaved(text: string): void;
}) {
  const [name, setName] = useState(category?.name ?? '');
  const [guide, setGuide] = useState(guideText(category?.sizeGuide ?? null));
  const [tried, setTried] = useState(false);
  const [server, setServer] = useState<{ field?: 'name' | 'guide'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const checked = checkForm(name, guide);
  const problem = (field: 'name' | 'guide') =>
    (tried ? checked[field] : undefined) ?? (server?.field === field ? server.text : undefined);

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setTried(true);
    setServer(null);
    if (!checked.input || busy) return;
    setBusy(true);
    try {
      if (category) {
        await call('adminUpdateCategory', {
          params: { slug: category.slug },
          body: { ...checked.input, version: category.version },
        });
        onSaved(`Saved “${checked.input.name}”.`);
      } else {
        await call('adminCreateCategory', { body: checked.input });
        setName('');
        setGuide('');
        setTried(false);
        onSaved(`Added “${checked.input.name}”.`);
      }
    } catch (error) {
      const field = fieldOf(error);
      setServer({ ...(field ? { field } : {}), text: messageOf(error) });
    }
    setBusy(false);
  }

  return (
    <form className="form" onSubmit={save} noValidate>
      <Field
        label="Name"
        name="name"
        autoComplete="off"
        value={name}
        error={problem('name')}
        announceError
        onChange={(event) => {
          setName(event.target.value);
          setServer(null);
        }}
        onBlur={() => {}}
      />
      <Field
        label="Size guide"
        name="sizeGuide"
        autoComplete="off"
        multiline
        hint={guideHint}
        value={guide}
        error={problem('guide')}
        announceError
        onChange={(event) => {
          setGuide(event.target.value);
          setServer(null);
        }}
        onBlur={() => {}}
      />
      {server && !server.field && <Alert kind="alert">{server.text}</Alert>}
      <p>
        <button type="submit" className="button" disabled={busy}>
          {submit}
        </button>
      </p>
    </form>
  );
}

/**
 * The owner's categories (docs/product.md §22): in the order riders see them, each with how many products it has;
 * added, renamed (its address stays), moved up or down, given a size guide, removed. A category with products asks
 * first: its products stay in the shop, out of it.
 */
export default function AdminCategoriesPage() {
  const { categories } = useLoaderData<typeof loader>();
  const revalidator = useRevalidator();
  const [message, setMessage] = useState<Message>(null);
  // The category whose removal waits for the owner's word, with what the server said of its products.
  const [confirming, setConfirming] = useState<{ slug: string; text: string } | null>(null);

  async function done(text: string) {
    setMessage({ kind: 'status', text });
    await revalidator.revalidate();
  }

  async function run(work: () => Promise<unknown>, text: string) {
    setMessage(null);
    try {
      await work();
      await done(text);
    } catch (error) {
      setMessage({ kind: 'alert', text: messageOf(error) });
      await revalidator.revalidate();
    }
  }

  function move(index: number, by: -1 | 1) {
    const slugs = moved(categories, index, by).map((c) => c.slug);
    const name = categories[index]?.name ?? '';
    void run(() => call('adminOrderCategories', { body: { slugs } }), `Moved “${name}” ${by < 0 ? 'up' : 'down'}.`);
  }

  async function remove(category: AdminCategory, withProducts: boolean) {
    setMessage(null);
    try {
      await call('adminRemoveCategory', {
        params: { slug: category.slug },
        query: { version: category.version, ...(withProducts ? { withProducts: '1' as const } : {}) },
      });
      setConfirming(null);
      await done(`Removed “${category.name}”.`);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'category/has-products') {
        setConfirming({ slug: category.slug, text: error.message });
      } else {
        setMessage({ kind: 'alert', text: messageOf(error) });
        await revalidator.revalidate();
      }
    }
  }

  return (
    <section className="page admin-page" aria-labelledby="categories-title">
      <DocumentTitle page={pages.adminCategories.title} />
      <h1 id="categories-title">Categories</h1>
      <AdminNav />
      <p>Riders see the categories in this order above the products, each with its own address.</p>
      {message && <Alert kind={message.kind}>{message.text}</Alert>}
      <ol className="category-list">
        {categories.map((category, index) => (
          <li key={`${category.slug}-${category.version}`} className="card">
            <h2>{category.name}</h2>
            <p>
              {category.products === 1 ? '1 product' : `${category.products} products`}
              {category.sizeGuide ? ', with a size guide' : ''}
            </p>
            <p className="actions">
              <MoveButtons
                index={index}
                count={categories.length}
                what={category.name}
                onMove={(by) => move(index, by)}
              />{' '}
              <button type="button" className="button button-quiet" onClick={() => void remove(category, false)}>
                Remove<span className="visually-hidden"> {category.name}</span>
              </button>
            </p>
            {confirming?.slug === category.slug && (
              <div role="alert" className="message message-alert">
                <p>{confirming.text}</p>
                <p>
                  <button type="button" className="button" onClick={() => void remove(category, true)}>
                    Remove “{category.name}” and take its products out of it
                  </button>{' '}
                  <button type="button" className="button button-quiet" onClick={() => setConfirming(null)}>
                    Keep it
                  </button>
                </p>
              </div>
            )}
            <details>
              <summary>
                Rename or change the size guide<span className="visually-hidden"> of {category.name}</span>
              </summary>
              <CategoryForm category={category} submit="Save" onSaved={(text) => void done(text)} />
            </details>
          </li>
        ))}
      </ol>
      <section className="card" aria-labelledby="new-category-title">
        <h2 id="new-category-title">New category</h2>
        <CategoryForm submit="Add category" onSaved={(text) => void done(text)} />
      </section>
    </section>
  );
}
