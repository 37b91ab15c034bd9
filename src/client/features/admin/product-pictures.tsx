import { type FormEvent, useId, useRef, useState } from 'react';
import { findingLimits, productLimits } from '../../../shared/limits';
import type { AdminProduct } from '../../../shared/products';
import { Alert } from '../../components/alert';
import { call, messageOf } from '../../lib/api';
import { MoveButtons, moved } from './move-buttons';
import { acceptedPictures, chosenPicture } from './picture-file';

interface ProductPicturesProps {
  product: AdminProduct;
  /** The version the page's form goes on from: an order sent from an older one is refused. */
  version: number;
  /** The product with its pictures changed (and its new version). */
  onSaved(product: AdminProduct): void;
}

/** Whether the product shows the stand-in of a product without a picture (it has none of its own). */
const standIn = (product: AdminProduct) => product.pictures.every((p) => p.pic.startsWith('/pictures/no-picture'));

/**
 * A product's gallery (docs/product.md §22): up to eight pictures in the order its page shows them, the first also the
 * card's; each moved up or down or removed, and another one added last.
 */
export function ProductPictures({ product, version, onSaved }: ProductPicturesProps) {
  const id = useId();
  const file = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [message, setMessage] = useState<{ kind: 'status' | 'alert'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const pictures = standIn(product) ? [] : product.pictures;
  const full = pictures.length >= findingLimits.picturesMax;

  async function arrange(order: number[], text: string) {
    if (busy) return;
    setBusy(true);
    setMessage(null);
    try {
      const { product: saved } = await call('adminOrderProductPictures', {
        params: { itemid: product.itemid },
        body: { version, order },
      });
      setMessage({ kind: 'status', text });
      onSaved(saved);
    } catch (error) {
      setMessage({ kind: 'alert', text: messageOf(error) });
    }
    setBusy(false);
  }

  const places = () => pictures.map((_, index) => index + 1);

  function move(index: number, by: -1 | 1) {
    void arrange(moved(places(), index, by), `Picture ${index + 1} is now picture ${index + 1 + by}.`);
  }

  function refuse(text: string) {
    setProblem(text);
    file.current?.focus();
  }

  async function upload(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setMessage(null);
    const chosen = chosenPicture(file.current);
    if ('problem' in chosen) return refuse(chosen.problem);
    const { picture } = chosen;
    setProblem(null);
    setBusy(true);
    const form = event.currentTarget;
    try {
      const { product: saved } = await call('adminAddProductPicture', {
        params: { itemid: product.itemid },
        file: picture,
      });
      form.reset();
      setMessage({ kind: 'status', text: `Picture ${saved.pictures.length} is added.` });
      onSaved(saved);
    } catch (error) {
      refuse(messageOf(error));
    }
    setBusy(false);
  }

  return (
    <section className="card product-pictures" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Pictures</h2>
      <p>
        Up to {findingLimits.picturesMax}, in the order the product's page shows them; the first is also its picture on
        the home page.
      </p>
      {pictures.length === 0 ? (
        <p>No pictures of its own yet.</p>
      ) : (
        <ol className="picture-list">
          {pictures.map((picture, index) => (
            // The same file uploaded twice is two places of one URL: each is keyed by which of them it is, so that a
            // picture keeps its buttons (and their focus) as it moves.
            <li key={`${picture.pic}-${pictures.slice(0, index).filter((p) => p.pic === picture.pic).length}`}>
              <img
                src={picture.pic}
                alt={`${product.name}, ${index + 1} of ${pictures.length}`}
                width={96}
                height={96}
              />
              <span className="actions">
                <MoveButtons
                  index={index}
                  count={pictures.length}
                  what={`picture ${index + 1}`}
                  disabled={busy}
                  onMove={(by) => move(index, by)}
                />
                <button
                  type="button"
                  className="button button-quiet"
                  disabled={busy}
                  onClick={() =>
                    void arrange(
                      places().filter((place) => place !== index + 1),
                      `Picture ${index + 1} is removed.`,
                    )
                  }
                >
                  Remove<span className="visually-hidden"> picture {index + 1}</span>
                </button>
              </span>
            </li>
          ))}
        </ol>
      )}
      {message && <Alert kind={message.kind}>{message.text}</Alert>}
      <form aria-labelledby={`${id}-add`} onSubmit={upload} noValidate>
        <h3 id={`${id}-add`}>Add a picture</h3>
        {full ? (
          <p>The product has {findingLimits.picturesMax} pictures: remove one to add another.</p>
        ) : (
          <>
            <div className="field">
              <label htmlFor={`${id}-file`}>Another picture</label>
              <p id={`${id}-hint`} className="field-hint">
                A JPEG, PNG or WebP of at most {productLimits.pictureMaxBytes / 1024 / 1024} MB, added last.
              </p>
              <input
                ref={file}
                id={`${id}-file`}
                name="picture"
                type="file"
                accept={acceptedPictures}
                aria-invalid={problem ? true : undefined}
                aria-describedby={problem ? `${id}-hint ${id}-error` : `${id}-hint`}
                onChange={() => setProblem(null)}
              />
              {problem && (
                <p id={`${id}-error`} className="field-error" role="alert">
                  {problem}
                </p>
              )}
            </div>
            <p>
              <button type="submit" className="button" disabled={busy}>
                Add picture
              </button>
            </p>
          </>
        )}
      </form>
    </section>
  );
}
