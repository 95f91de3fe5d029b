// A bare static page: the Lighthouse reference, and the reference for static pages.
export default function Page() {
  return (
    <main>
      <h1>A bare Next page</h1>
      <p>Rendered at build time, served as a static file.</p>
    </main>
  );
}
