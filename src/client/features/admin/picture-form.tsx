import { type FormEvent, useId, useRef, useState } from 'react';
import { productLimits } from '../../../shared/limits';
import type { AdminProduct } from '../../../shared/products';
import { Alert } from '../../components/alert';
import { call, messageOf } from '../../lib/api';
import { acceptedPictures, chosenPicture } from './picture-file';

interface PictureFormProps {
  product: AdminProduct;
  /** The product with its new picture (and its new version). */
  onSaved(product: AdminProduct): void;
}

/**
 * A product's picture: the thumbnail the home page shows, a link to the large one, and a new picture to upload (the
 * server makes both of it).
 */
export function PictureForm({ product, onSaved }: PictureFormProps) {
  const id = useId();
  const file = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);

  function refuse(text: string) {
    setProblem(text);
    file.current?.focus();
  }

  async function upload(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setDone(false);
    const chosen = chosenPicture(file.current);
    if ('problem' in chosen) return refuse(chosen.problem);
    const { picture } = chosen;
    setProblem(null);
    setBusy(true);
    const form = event.currentTarget;
    try {
      const { product: saved } = await call('adminProductPicture', {
        params: { itemid: product.itemid },
        file: picture,
      });
      form.reset();
      setDone(true);
      onSaved(saved);
    } catch (error) {
      refuse(messageOf(error));
    }
    setBusy(false);
  }

  return (
    <form className="card form picture-form" aria-labelledby={`${id}-title`} onSubmit={upload} noValidate>
      <h2 id={`${id}-title`}>Picture</h2>
      <div className="picture-current">
        <img src={product.pic} alt={product.name} width={160} height={160} />
        <a href={product.largepic} target="_blank" rel="noopener">
          Open the large picture
        </a>
      </div>
      <div className="field">
        <label htmlFor={id}>New picture</label>
        <p id={`${id}-hint`} className="field-hint">
          A JPEG, PNG or WebP of at most {productLimits.pictureMaxBytes / 1024 / 1024} MB. The shop makes the thumbnail
          and the large picture from it.
        </p>
        <input
          ref={file}
          id={id}
          name="picture"
          type="file"
          accept={acceptedPictures}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-hint ${id}-error` : `${id}-hint`}
          onChange={() => {
            setProblem(null);
            setDone(false);
          }}
        />
        {problem && (
          <p id={`${id}-error`} className="field-error" role="alert">
            {problem}
          </p>
        )}
      </div>
      {done && <Alert kind="status">The new picture is saved.</Alert>}
      <p>
        <button type="submit" className="button" disabled={busy}>
          Upload picture
        </button>
      </p>
    </form>
  );
}
