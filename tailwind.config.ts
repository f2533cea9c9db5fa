/** Theme tokens of the studio; src/index.css loads this file with `@config`. */
import type { Config } from 'tailwindcss';

export default {
  content: ['./index.html', './src/**/*.{ts,tsx}'],
  theme: {
    extend: {
      colors: {
        // A calm indigo for the one thing to do next (run, selection); everything else stays neutral.
        accent: {
          50: '#f3f4ff',
          100: '#e6e8fe',
          200: '#cfd3fc',
          300: '#aab1f7',
          400: '#8088ef',
          500: '#5f66e3',
          600: '#4b4fd4',
          700: '#3e40b8',
          800: '#353694',
          900: '#2f3175',
        },
        canvas: '#f7f7f5',
      },
      fontFamily: {
        sans: ['Inter', 'ui-sans-serif', 'system-ui', '-apple-system', 'Segoe UI', 'Roboto', 'Helvetica Neue', 'Arial', 'sans-serif'],
        mono: ['JetBrains Mono', 'ui-monospace', 'SFMono-Regular', 'Menlo', 'Consolas', 'monospace'],
      },
      boxShadow: {
        card: '0 1px 2px rgb(28 25 23 / 0.04), 0 1px 1px rgb(28 25 23 / 0.03)',
        lift: '0 8px 24px -8px rgb(28 25 23 / 0.18), 0 2px 6px -2px rgb(28 25 23 / 0.08)',
      },
    },
  },
} satisfies Config;
