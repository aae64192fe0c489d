// Six Debian packages (name, section, summary) for the hybrid, vector and similar-documents tests:
// two sections to filter on, and summaries whose words set compressors apart from web servers.
export const PACKAGES = [
  { id: 1, name: 'gzip', section: 'utils', summary: 'GNU compression utility (replacement for compress)' },
  { id: 2, name: 'xz-utils', section: 'utils', summary: 'XZ-format compression utilities' },
  { id: 3, name: 'nginx', section: 'httpd', summary: 'small, powerful, scalable web/proxy server' },
  { id: 4, name: 'apache2', section: 'httpd', summary: 'Apache HTTP Server' },
  { id: 5, name: 'zstd', section: 'utils', summary: 'fast lossless compression algorithm -- CLI tool' },
  { id: 6, name: 'lighttpd', section: 'httpd', summary: 'fast webserver with minimal memory footprint' },
];
