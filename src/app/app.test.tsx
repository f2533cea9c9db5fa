import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { endpointList } from '../../contract/index.ts';
import { renderWithQuery } from '../testing/render.tsx';
import { App } from './app.tsx';

const health = (status: number, body: unknown) =>
  vi.fn(async (url: string) => (url === '/healthz' ? new Response(typeof body === 'string' ? body : JSON.stringify(body), { status }) : new Response('{}', { status: 404 })));

afterEach(() => {
  vi.unstubAllGlobals();
  window.location.hash = '';
});

describe('App', () => {
  it('lists every effect but the task query, grouped in the contract order', () => {
    vi.stubGlobal('fetch', health(200, { status: 'ok' }));
    renderWithQuery(<App />);
    const nav = screen.getByRole('navigation', { name: 'Effects' });
    expect(within(nav).getAllByRole('heading').map((h) => h.textContent)).toEqual([
      'Background removal', 'Portrait effects', 'Portrait editing', 'Portrait analysis', 'Image editing',
    ]);
    expect(within(nav).getAllByRole('link')).toHaveLength(endpointList.filter((x) => x.mode !== 'query').length);
    expect(within(nav).queryByText('Task result')).toBeNull();
  });

  it('marks effects /healthz reports as not available, in the sidebar and in the panel', async () => {
    vi.stubGlobal('fetch', health(200, { status: 'ok', ready: true, effects: { 'commodity-background-removal': 'not_available', 'face-beauty': 'available' } }));
    renderWithQuery(<App />);
    const link = await screen.findByRole('link', { name: /Product background removal.*Not available/ });
    expect(screen.getByRole('link', { name: 'Face beauty' })).toBeTruthy();
    expect(screen.getByText('1 not available', { exact: false })).toBeTruthy();
    act(() => {
      window.location.hash = 'commodity-background-removal';
      window.dispatchEvent(new HashChangeEvent('hashchange'));
    });
    expect(link.getAttribute('aria-current')).toBe('page');
    expect(screen.getByRole('heading', { level: 1, name: 'Product background removal' })).toBeTruthy();
    expect(screen.getByText('This effect is not available on the connected engine.')).toBeTruthy();
  });

  it('takes every effect as available when /healthz is absent', async () => {
    vi.stubGlobal('fetch', health(404, '<!doctype html><p>not here</p>'));
    renderWithQuery(<App />);
    await waitFor(() => expect(screen.getByText('Engine status unknown')).toBeTruthy());
    expect(screen.queryByText('Not available')).toBeNull();
  });
});
