import { type FormEvent, useEffect, useId, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import type { Category } from '../../../shared/finding';
import { pages } from '../../../shared/pages';

/** The list's choices as the address carries them (docs/product.md §22); the page is apart. */
export interface Choices {
  q: string;
  category: string;
  size: string;
  instock: boolean;
}

export function choicesOf(search: URLSearchParams): Choices {
  return {
    q: search.get('q') ?? '',
    category: search.get('category') ?? '',
    size: search.get('size') ?? '',
    instock: search.get('instock') === '1',
  };
}

/** The address of the list for `choices`, on its first page; what is not chosen is left out. */
export function listAddress(choices: Choices): string {
  const params = new URLSearchParams();
  if (choices.q.trim()) params.set('q', choices.q.trim());
  if (choices.category) params.set('category', choices.category);
  if (choices.size) params.set('size', choices.size);
  if (choices.instock) params.set('instock', '1');
  const query = params.toString();
  return query ? `${pages.home.path}?${query}` : pages.home.path;
}

interface FinderProps {
  choices: Choices;
  categories: readonly Category[];
  sizes: readonly string[];
}

/**
 * Above the cards: 'Search the shop', the categories as links, a 'Size' filter and 'In stock only'. Each choice is a
 * new address (Back goes to the one before); the list follows it.
 */
export function Finder({ choices, categories, sizes }: FinderProps) {
  const navigate = useNavigate();
  const id = useId();
  const choose = (changes: Partial<Choices>) => navigate(listAddress({ ...choices, ...changes }));
  // What the rider types; the address's words again when the address changes (Back, a link).
  const [words, setWords] = useState(choices.q);
  useEffect(() => setWords(choices.q), [choices.q]);
  // 'In stock only' as clicked, while the list of the new address loads; the address's again when it changes.
  const [instock, setInstock] = useState(choices.instock);
  useEffect(() => setInstock(choices.instock), [choices.instock]);

  function search(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    choose({ q: words });
  }

  return (
    <div className="finder">
      <search className="field finder-search">
        <form onSubmit={search}>
          <label htmlFor={`${id}-q`}>Search the shop</label>
          <div className="finder-row">
            <input
              id={`${id}-q`}
              name="q"
              type="search"
              value={words}
              maxLength={100}
              onChange={(event) => setWords(event.target.value)}
            />
            <button type="submit" className="button">
              Search
            </button>
          </div>
        </form>
      </search>
      <div className="finder-filters">
        <div className="field">
          <label htmlFor={`${id}-size`}>Size</label>
          <select id={`${id}-size`} value={choices.size} onChange={(event) => choose({ size: event.target.value })}>
            <option value="">Any size</option>
            {sizes.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </select>
        </div>
        <label className="finder-check">
          <input
            type="checkbox"
            checked={instock}
            onChange={(event) => {
              setInstock(event.target.checked);
              choose({ instock: event.target.checked });
            }}
          />
          In stock only
        </label>
      </div>
      <nav aria-label="Categories" className="finder-categories">
        <ul>
          <li>
            <Link
              to={listAddress({ ...choices, category: '' })}
              aria-current={choices.category === '' ? 'page' : undefined}
            >
              All products
            </Link>
          </li>
          {categories.map((category) => (
            <li key={category.slug}>
              <Link
                to={listAddress({ ...choices, category: category.slug })}
                aria-current={choices.category === category.slug ? 'page' : undefined}
              >
                {category.name}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );
}
