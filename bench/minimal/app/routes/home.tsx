export function meta() {
  return [{ title: "Minimal" }, { name: "description", content: "Bench baseline page" }];
}

export default function Home() {
  return (
    <main>
      <h1>Hello</h1>
      <p>The smallest server-rendered React Router page, used as the bench baseline.</p>
    </main>
  );
}
