import { brand } from '../../shared/brand';

export function Banner() {
  return (
    <div className="banner">
      <ul className="banner-list" aria-label="What we ride for">
        {brand.banner.map((word) => (
          <li key={word}>{word}</li>
        ))}
      </ul>
    </div>
  );
}
