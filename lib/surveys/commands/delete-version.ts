/** Discards a draft and its summary in one conditional transaction; published and superseded versions are kept (store/versions.ts). */
export { deleteVersion } from '../store/versions.ts';
