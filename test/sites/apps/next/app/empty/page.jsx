// A page without the plate: what Next.js itself costs a first visit, beside what the plate adds.
export default function Empty() {
  return <p id="empty">A volume page with no plate.</p>;
}
