/**
 * useLayoutEffect in the browser, useEffect where there is no document (a site's server render).
 * Neither runs on the server; React 18's server renderer warns at every useLayoutEffect it meets
 * ("does nothing on the server"), React 19's does not, and the package takes both.
 */
import { useEffect, useLayoutEffect } from 'react';

export const useClientLayoutEffect = typeof document === 'undefined' ? useEffect : useLayoutEffect;
