// An Astro site with React components, as `npx astro add react` leaves it: nothing about the plate.
import react from '@astrojs/react';
import { defineConfig } from 'astro/config';

export default defineConfig({ integrations: [react()], telemetry: false });
