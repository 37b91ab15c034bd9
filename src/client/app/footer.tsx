import { brand } from '../../shared/brand';

export function Footer() {
  return (
    <footer className="site-footer">
      <p>
        <span>{brand.address}</span>
        <span>{brand.phone}</span>
        <span>
          © {new Date().getFullYear()} {brand.title}
        </span>
      </p>
      <p className="credits">{brand.pictureCredits}</p>
    </footer>
  );
}
