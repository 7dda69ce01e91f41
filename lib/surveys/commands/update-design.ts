/** Changes a design in one conditional UpdateItem (store/designs.ts). */
export { updateDesign } from '../store/designs.ts';
