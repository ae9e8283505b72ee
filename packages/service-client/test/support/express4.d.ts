// `express4` is an npm alias of Express 4, installed so that both majors run the same tests.
declare module 'express4' {
  import express from 'express';
  export default express;
}
