import { Link } from "~/components/ui/link";
import type { MaterialCardView } from "~/domain/materials/cards";
import { links } from "~/lib/links";
import { CatalogImage } from "./catalog-image";

export function MaterialCard({
  material,
  categoryName,
  eager = false,
  headingLevel = 3,
}: {
  material: MaterialCardView;
  categoryName?: string;
  eager?: boolean;
  headingLevel?: 2 | 3;
}) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <article className="group relative flex flex-col" data-testid="material-card" data-material-id={material.id}>
      <div className="aspect-[4/3] overflow-hidden rounded-2xl bg-sand" style={{ backgroundColor: material.swatch }}>
        {material.image ? (
          <CatalogImage
            image={material.image}
            eager={eager}
            sizes="(min-width: 1024px) 25vw, (min-width: 640px) 33vw, 50vw"
            className="transition-transform duration-500 group-hover:scale-[1.03]"
          />
        ) : null}
      </div>
      <div className="mt-3 space-y-0.5">
        {categoryName ? <p className="text-xs tracking-[0.18em] text-brand-700">{categoryName}</p> : null}
        <Heading className="text-base leading-snug font-semibold">
          <Link
            to={links.materialDetail(material.id)}
            className="after:absolute after:inset-0 focus-visible:outline-none after:rounded-2xl focus-visible:after:outline-2 focus-visible:after:outline-offset-4 focus-visible:after:outline-brand-700"
          >
            {material.name}
          </Link>
        </Heading>
        <p className="text-sm text-muted">
          {material.series} · {material.colour}
        </p>
      </div>
    </article>
  );
}
