// A server page of the app router importing the plate directly: the package's entry is a client
// module ('use client'), so the plate's text renders on the server and the figure in the browser.
import { MultiTurnRLPlate } from 'multi-turn-rl-plate';

export default function Page() {
  return <MultiTurnRLPlate xrefPattern="/volume/plates/{ref}/" autorun steps={2} />;
}
