import { render } from 'preact';
import { App } from './app.js';
import { readBootstrap } from './bootstrap.js';
import './styles.css';

const boot = readBootstrap();
let root = document.getElementById('app');
if (!root) {
  root = document.createElement('div');
  root.id = 'app';
  document.body.appendChild(root);
}
render(<App boot={boot} />, root);
