import { lazy, Suspense, useEffect, useState } from "react";
import { useRevalidator } from "react-router";

// The uploader is its own chunk, fetched after the page is interactive (the console's JS budget).
const ImageUploader = lazy(() => import("~/components/console/image-uploader"));

/** The library's upload card: an uploaded image shows up in the list below (the page's data is read again). */
export function LibraryUploader() {
  const revalidator = useRevalidator();
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  const placeholder = <div className="h-64 rounded-2xl bg-sand/40" aria-hidden="true" />;
  return (
    <section className="mt-6 rounded-2xl border border-line bg-white p-5">
      {mounted ? (
        <Suspense fallback={placeholder}>
          <ImageUploader onUploaded={() => revalidator.revalidate()} />
        </Suspense>
      ) : (
        placeholder
      )}
    </section>
  );
}
