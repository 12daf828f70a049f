# placeholder: app helper B replaces this page
