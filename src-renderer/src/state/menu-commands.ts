// The desktop app's menu (New, Open, Import, Close, Export): each command becomes the same
// action its button runs. Close and Export go to the open studio view as DOM events, since
// it owns what they ask about (unsaved forms, the export dialog).
import { onMenuCommand } from '../api/client';
import { pickAndImport } from './import-actions';
import { closeWorkspace, pickAndOpenWorkspace } from './workspace-actions';

/** Follows the menu until the returned function is called. */
export function followMenuCommands(): () => void {
  return onMenuCommand(async (command) => {
    if (command === 'workspace.new') await pickAndOpenWorkspace('create');
    else if (command === 'workspace.open') await pickAndOpenWorkspace('open');
    else if (command === 'import') await pickAndImport();
    else if (command === 'workspace.close') {
      // The menu's Close asks first, as the toolbar's does; with no workspace view open there is nothing to ask about.
      if (!document.dispatchEvent(new CustomEvent('worldloom:close-workspace', { cancelable: true }))) return;
      await closeWorkspace();
    } else if (command === 'export') {
      document.dispatchEvent(new CustomEvent('worldloom:export'));
    }
  });
}
