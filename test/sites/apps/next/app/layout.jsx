import 'multi-turn-rl-plate/style.css';

export const metadata = { title: 'A volume page built with Next.js', icons: { icon: 'data:,' } };

export default function RootLayout({ children }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
