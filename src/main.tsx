import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <main>
      <h1>KYC Desk</h1>
      <p>
        The console is being built. The API reference is at <a href="/api/docs">/api/docs</a>.
      </p>
    </main>
  </StrictMode>,
);
